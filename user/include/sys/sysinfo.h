/* sys/sysinfo.h: sysinfo and the get_nprocs / get_phys_pages family for newlib programs (Linux's struct sysinfo). */
#ifndef USER_SYS_SYSINFO_H
#define USER_SYS_SYSINFO_H

struct sysinfo {
	long		uptime;		/* seconds since boot */
	unsigned long	loads[3];
	unsigned long	totalram;	/* in mem_unit bytes */
	unsigned long	freeram;
	unsigned long	sharedram;
	unsigned long	bufferram;
	unsigned long	totalswap;
	unsigned long	freeswap;
	unsigned short	procs;
	unsigned short	pad;
	unsigned long	totalhigh;
	unsigned long	freehigh;
	unsigned int	mem_unit;
	char		_f[8];
};

int sysinfo(struct sysinfo *info);
int get_nprocs(void);
int get_nprocs_conf(void);
long get_phys_pages(void);
long get_avphys_pages(void);

#endif
