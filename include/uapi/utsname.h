/* utsname.h (uapi): struct new_utsname for uname (122), Linux's layout: six 65-byte strings. */
#ifndef UAPI_UTSNAME_H
#define UAPI_UTSNAME_H

#define UTSNAME_LEN	65

struct new_utsname {
	char	sysname[UTSNAME_LEN];		/* "aiokern" */
	char	nodename[UTSNAME_LEN];
	char	release[UTSNAME_LEN];
	char	version[UTSNAME_LEN];
	char	machine[UTSNAME_LEN];		/* "i686" */
	char	domainname[UTSNAME_LEN];
};

#endif
