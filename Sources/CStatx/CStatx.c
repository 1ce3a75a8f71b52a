#define _GNU_SOURCE
#include "CStatx.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

int cstatx_identity(const char *path, uint64_t *device, uint64_t *inode) {
#ifdef STATX_INO
    struct statx found;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, STATX_INO, &found) != 0) return -1;
    if (!(found.stx_mask & STATX_INO)) {
        errno = ENOSYS;
        return -1;
    }
    *device = (uint64_t)makedev(found.stx_dev_major, found.stx_dev_minor);
    *inode = (uint64_t)found.stx_ino;
    return 0;
#else
    (void)path;
    (void)device;
    (void)inode;
    errno = ENOSYS;
    return -1;
#endif
}
