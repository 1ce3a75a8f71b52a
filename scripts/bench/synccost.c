#define _GNU_SOURCE
/* What one durable append costs on this machine's disk, alone: N times, 512 bytes written with pwrite over
 * blocks the file already has (as the journal writes over its zeros ahead) and made durable with fdatasync.
 * Prints the wall time and the process's CPU time (user + system) per append, with the wall-time p50 and p99,
 * and the context switches per append. A measuring instrument for docs/PERFORMANCE.md, not part of the product.
 *
 * CHECK, before each append, asks whether the file is still in place the way the host could:
 *   none   no check (the default);
 *   statx  statx of the file's path asking for its inode alone, as the host does;
 *   stat   stat of the file's path, which reads its times: from then on each write changes the inode, and
 *          fdatasync writes it too (count the disk requests with `perf stat -a -e block:block_rq_issue`);
 *   proc   stat of the directory and readlink of /proc/self/fd/N.
 * With a check, it first times 100 * COUNT checks alone and prints the wall time of one.
 * Build: cc -O2 -o /tmp/synccost scripts/bench/synccost.c   Run: /tmp/synccost /var/tmp/synccost.dat 5000 [CHECK] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(struct rusage *u) {
    return u->ru_utime.tv_sec + u->ru_utime.tv_usec / 1e6 + u->ru_stime.tv_sec + u->ru_stime.tv_usec / 1e6;
}

static const char *check = "none";
static char directory[4096], link_name[64], name[4096];

static int check_in_place(const char *path) {
    struct stat found;
    struct statx identity;
    if (!strcmp(check, "statx")) return statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_INO, &identity);
    if (!strcmp(check, "stat")) return stat(path, &found);
    if (!strcmp(check, "proc")) return stat(directory, &found) || readlink(link_name, name, sizeof name) < 0;
    return 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc == 4) check = argv[3];
    if (argc < 3 || argc > 4 || atoi(argv[2]) <= 0 ||
        (strcmp(check, "none") && strcmp(check, "statx") && strcmp(check, "stat") && strcmp(check, "proc"))) {
        fprintf(stderr, "usage: synccost FILE COUNT [none|statx|stat|proc]\n");
        return 64;
    }
    const char *path = argv[1];
    int count = atoi(argv[2]);
    snprintf(directory, sizeof directory, "%s", path);
    char *slash = strrchr(directory, '/');
    if (slash) *slash = 0; else snprintf(directory, sizeof directory, ".");
    size_t size = (size_t)count * 512 + (1 << 20);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    /* Zeros first, synced, so the appends change neither the size nor the blocks. */
    char *zeros = calloc(1, 1 << 20);
    for (size_t at = 0; at < size; at += 1 << 20) {
        if (pwrite(fd, zeros, 1 << 20, (off_t)at) != 1 << 20) {
            perror("pwrite");
            return 1;
        }
    }
    if (fsync(fd) != 0) {
        perror("fsync");
        return 1;
    }
    char record[512];
    memset(record, 'x', sizeof record);
    snprintf(link_name, sizeof link_name, "/proc/self/fd/%d", fd);
    if (strcmp(check, "none")) {
        double start = now();
        for (int i = 0; i < 100 * count; i++) {
            if (check_in_place(path) != 0) {
                perror("check");
                return 1;
            }
        }
        printf("%s check alone: %.2f us\n", check, (now() - start) / (100.0 * count) * 1e6);
    }
    double *wall = malloc(sizeof(double) * count);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double start = now();
    for (int i = 0; i < count; i++) {
        double t = now();
        if (check_in_place(path) != 0) {
            perror("check");
            return 1;
        }
        if (pwrite(fd, record, sizeof record, (off_t)i * 512) != sizeof record || fdatasync(fd) != 0) {
            perror("append");
            return 1;
        }
        wall[i] = now() - t;
    }
    double total = now() - start;
    getrusage(RUSAGE_SELF, &after);
    qsort(wall, count, sizeof(double), compare);
    long switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw);
    printf("%d appends (check: %s): %.1f us wall, %.1f us CPU, %.2f context switches each; wall p50 %.0f us, p99 %.0f us\n",
           count, check, total / count * 1e6, (cpu(&after) - cpu(&before)) / count * 1e6, (double)switches / count,
           wall[count / 2] * 1e6, wall[count * 99 / 100] * 1e6);
    close(fd);
    unlink(path);
    return 0;
}
