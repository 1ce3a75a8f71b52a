#ifndef SPY_CSTATX_H
#define SPY_CSTATX_H

#include <stdint.h>

// The device and inode of the file at `path` (a symbolic link itself, not what it points to), asking the kernel
// for those two alone: 0, or -1 with errno set (ENOSYS where the kernel or the C library has no statx).
//
// Glibc's Swift module leaves out statx(2), and plain stat(2) will not do for a file the host keeps writing: once
// a file's times have been read, the kernel stamps its next change with the fine clock (multigrain timestamps),
// so every write changes the inode and every fdatasync has to write it too. statx asked for no times reads none.
int cstatx_identity(const char *path, uint64_t *device, uint64_t *inode);

#endif
