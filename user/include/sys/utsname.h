/* sys/utsname.h: struct utsname and uname for newlib programs (Linux's six 65-byte fields). */
#ifndef USER_SYS_UTSNAME_H
#define USER_SYS_UTSNAME_H

#define _UTSNAME_LENGTH	65

struct utsname {
	char	sysname[_UTSNAME_LENGTH];	/* "aiokern" */
	char	nodename[_UTSNAME_LENGTH];
	char	release[_UTSNAME_LENGTH];
	char	version[_UTSNAME_LENGTH];
	char	machine[_UTSNAME_LENGTH];	/* "i686" */
	char	domainname[_UTSNAME_LENGTH];
};

int uname(struct utsname *buf);

#endif
