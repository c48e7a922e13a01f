#ifndef CTV_EVENT_LOOP_H
#define CTV_EVENT_LOOP_H

// The event loop's kernel interfaces. Swift's Glibc module does not include these headers, so
// `epoll_*`, `eventfd` and `timerfd_*` reach Swift only through this one. Every call in them is a
// plain function and every flag (EPOLLIN, EFD_NONBLOCK, TFD_TIMER_ABSTIME, …) is an enum
// constant, so all of it imports as it is: no wrapper functions are needed, and none are written.
// `struct epoll_event` is packed on x86-64 (12 bytes); the importer keeps that layout.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

#endif
