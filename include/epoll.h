/* epoll.h: epoll instances (kernel/fs/epoll.c): the hook that takes a file out
 * of every instance watching it when its last reference goes. */
#ifndef EPOLL_H
#define EPOLL_H

struct file;

/* f's last reference is being dropped (fput, before ->release): remove it
 * from every epoll instance that watches it. Process context, may sleep;
 * cheap when no instance does. */
void epoll_file_release(struct file *f);

#endif
