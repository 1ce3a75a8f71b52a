#define _GNU_SOURCE
/* What one durable append costs on this machine's disk, alone: N times, 512 bytes written with pwrite over
 * blocks the file already has (as the journal writes over its zeros ahead) and made durable with fdatasync.
 * Prints the wall time and the process's CPU time (user + system) per append, with the wall-time p50 and p99,
 * and the context switches per append. A measuring instrument for docs/PERFORMANCE.md, not part of the product.
 * Build: cc -O2 -o /tmp/synccost scripts/bench/synccost.c   Run: /tmp/synccost /var/tmp/synccost.dat 5000 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 3 || atoi(argv[2]) <= 0) {
        fprintf(stderr, "usage: synccost FILE COUNT\n");
        return 64;
    }
    const char *path = argv[1];
    int count = atoi(argv[2]);
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
    double *wall = malloc(sizeof(double) * count);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    double start = now();
    for (int i = 0; i < count; i++) {
        double t = now();
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
    printf("%d appends: %.1f us wall, %.1f us CPU, %.2f context switches each; wall p50 %.0f us, p99 %.0f us\n",
           count, total / count * 1e6, (cpu(&after) - cpu(&before)) / count * 1e6, (double)switches / count,
           wall[count / 2] * 1e6, wall[count * 99 / 100] * 1e6);
    close(fd);
    unlink(path);
    return 0;
}
