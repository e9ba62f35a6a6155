/* version.h: the kernel's name and version, shown in the boot banner. */
#ifndef VERSION_H
#define VERSION_H

#define KERNEL_NAME	"aiokern"
#define KERNEL_VERSION	"0.1.0"

#endif
