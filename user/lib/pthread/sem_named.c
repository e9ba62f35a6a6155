/* sem_named.c: named semaphores (sem_open, sem_close, sem_unlink) as files /dev/shm/sem.NAME mapped shared, as glibc's. */
#include <fcntl.h>
#include <limits.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "impl.h"

/*
 * The file holds one process-shared sem_t. Its creator (O_CREAT | O_EXCL
 * inside, whatever the caller asked) writes the initialized semaphore with
 * one write, which sets the size and the bytes together: an opener that
 * finds the file shorter than a sem_t waits for that write (a creator between
 * its open and its write), so nobody maps a semaphore not yet initialized.
 * Within a process one name gives one address (POSIX): the mappings are
 * counted by inode, and sem_close unmaps at the last.
 */

#define SEM_PREFIX	"/dev/shm/sem."
#define SEM_OPENS	64		/* named semaphores open at once in a process */
#define SEM_WAIT_TRIES	1000		/* 1 ms each: for a creator's write */

static struct sem_open_entry {
	ino_t ino;
	sem_t *sem;
	int refs;
} opens[SEM_OPENS];
static pthread_mutex_t opens_lock = PTHREAD_MUTEX_INITIALIZER;

/* /dev/shm/sem.NAME for "/NAME" (one leading slash, no other): 0 or an errno. */
static int sem_path(const char *name, char *path, size_t size)
{
	if (!name || name[0] != '/' || !name[1] || strchr(name + 1, '/'))
		return EINVAL;
	if (strlen(name + 1) > NAME_MAX - 4)
		return ENAMETOOLONG;
	snprintf(path, size, SEM_PREFIX "%s", name + 1);
	return 0;
}

/* Make the file with the semaphore in it: the descriptor, or -1 with errno. */
static int sem_create(const char *path, mode_t mode, unsigned value)
{
	sem_t init;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	if (fd < 0)
		return -1;
	sem_init(&init, 1, value);
	if (write(fd, &init, sizeof(init)) != sizeof(init)) {
		int err = errno;
		close(fd);
		unlink(path);
		errno = err;
		return -1;
	}
	return fd;
}

/* Open an existing one, once its creator has written it: the descriptor, or -1. */
static int sem_open_existing(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	for (int i = 0; fd >= 0 && i < SEM_WAIT_TRIES; i++) {
		if (fstat(fd, &st) < 0 || st.st_size >= (off_t)sizeof(sem_t))
			return fd;
		usleep(1000);
	}
	if (fd >= 0) {
		close(fd);
		errno = EINVAL;		/* never initialized: not a semaphore */
	}
	return -1;
}

/* The process's mapping of fd's semaphore, counted (opens_lock held). */
static sem_t *sem_map(int fd)
{
	struct stat st;
	int free_slot = -1;
	sem_t *s;

	if (fstat(fd, &st) < 0)
		return SEM_FAILED;
	for (int i = 0; i < SEM_OPENS; i++) {
		if (opens[i].refs && opens[i].ino == st.st_ino) {
			opens[i].refs++;
			return opens[i].sem;
		}
		if (!opens[i].refs && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		errno = EMFILE;
		return SEM_FAILED;
	}
	s = mmap(NULL, sizeof(sem_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		return SEM_FAILED;
	opens[free_slot] = (struct sem_open_entry){ st.st_ino, s, 1 };
	return s;
}

sem_t *sem_open(const char *name, int oflag, ...)
{
	char path[sizeof(SEM_PREFIX) + NAME_MAX];
	unsigned value = 0;
	mode_t mode = 0;
	int err = sem_path(name, path, sizeof(path)), fd = -1;
	sem_t *s;

	if (oflag & O_CREAT) {
		va_list ap;

		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, int);
		value = va_arg(ap, unsigned);
		va_end(ap);
		if (!err && value > SEM_VALUE_MAX)
			err = EINVAL;
	}
	if (err) {
		errno = err;
		return SEM_FAILED;
	}
	while (fd < 0) {
		if (oflag & O_CREAT) {
			fd = sem_create(path, mode, value);
			if (fd >= 0 || errno != EEXIST || (oflag & O_EXCL))
				break;
		}
		fd = sem_open_existing(path);
		if (fd >= 0 || errno != ENOENT || !(oflag & O_CREAT))
			break;		/* (ENOENT with O_CREAT: unlinked meanwhile, again) */
	}
	if (fd < 0)
		return SEM_FAILED;
	pthread_mutex_lock(&opens_lock);
	s = sem_map(fd);
	pthread_mutex_unlock(&opens_lock);
	err = errno;
	close(fd);
	errno = err;
	return s;
}

int sem_close(sem_t *s)
{
	int r = -1;

	pthread_mutex_lock(&opens_lock);
	for (int i = 0; i < SEM_OPENS; i++) {
		if (opens[i].refs && opens[i].sem == s) {
			if (!--opens[i].refs)
				munmap(s, sizeof(sem_t));
			r = 0;
			break;
		}
	}
	pthread_mutex_unlock(&opens_lock);
	if (r)
		errno = EINVAL;		/* not one sem_open returned */
	return r;
}

int sem_unlink(const char *name)
{
	char path[sizeof(SEM_PREFIX) + NAME_MAX];
	int err = sem_path(name, path, sizeof(path));

	if (err) {
		errno = err == EINVAL ? ENOENT : err;
		return -1;
	}
	return unlink(path);
}
