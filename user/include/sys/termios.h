/* sys/termios.h: struct termios, tcgetattr and tcsetattr for newlib programs (newlib's <termios.h> includes this). */
#ifndef USER_SYS_TERMIOS_H
#define USER_SYS_TERMIOS_H

/*
 * glibc's user layout and constants (Linux's values).  Only the console is a
 * terminal; its settings are kept but not acted on (it is a raw 115200 8N1
 * serial line).
 */
typedef unsigned char	cc_t;
typedef unsigned int	speed_t;
typedef unsigned int	tcflag_t;

#define NCCS		32

struct termios {
	tcflag_t	c_iflag;
	tcflag_t	c_oflag;
	tcflag_t	c_cflag;
	tcflag_t	c_lflag;
	cc_t		c_line;
	cc_t		c_cc[NCCS];
	speed_t		c_ispeed;
	speed_t		c_ospeed;
};

/* c_cflag */
#define CSIZE		0000060
#define CS8		0000060
#define CREAD		0000200
#define CLOCAL		0004000
#define CBAUD		0010017
#define B115200		0010002
/* c_lflag */
#define ISIG		0000001
#define ICANON		0000002
#define ECHO		0000010
/* tcsetattr */
#define TCSANOW		0
#define TCSADRAIN	1
#define TCSAFLUSH	2

int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);
speed_t cfgetospeed(const struct termios *t);
speed_t cfgetispeed(const struct termios *t);

#endif
