/* fcntl.h (uapi): open flags, Linux i386 octal values (newlib's differ: the glue translates). */
#ifndef UAPI_FCNTL_H
#define UAPI_FCNTL_H

#ifndef UAPI_STRUCTS_ONLY
#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100	/* create if missing */
#define O_EXCL		00000200	/* with O_CREAT: fail if it exists */
#define O_TRUNC		00001000	/* truncate to 0 */
#define O_APPEND	00002000	/* writes go to the end */
#define O_NONBLOCK	00004000
#define O_DSYNC		00010000	/* data written through before write returns */
#define O_DIRECT	00040000	/* no caching; buffers sector-aligned */
#define O_DIRECTORY	00200000
#define O_CLOEXEC	02000000
#define O_SYNC		04010000	/* O_DSYNC plus metadata */

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#endif

#endif
