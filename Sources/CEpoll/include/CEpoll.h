#ifndef SPY_CEPOLL_H
#define SPY_CEPOLL_H

// Glibc's Swift module leaves out <sys/epoll.h>; this target brings it in, with the flag values as functions so
// Swift sees plain integers whatever form the header gives them.
#include <sys/epoll.h>
#include <stdint.h>

static inline uint32_t cepoll_in(void) { return EPOLLIN; }
static inline uint32_t cepoll_out(void) { return EPOLLOUT; }
static inline uint32_t cepoll_err(void) { return EPOLLERR; }
static inline uint32_t cepoll_hup(void) { return EPOLLHUP; }
static inline uint32_t cepoll_rdhup(void) { return EPOLLRDHUP; }
static inline int cepoll_cloexec(void) { return EPOLL_CLOEXEC; }

#endif
