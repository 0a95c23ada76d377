/* SPDX-License-Identifier: MIT */
/*
 * bench_whole.c — the throughput of a whole `judgectl check` process:
 * what a user of `check` waits for, start-up, reading and printing
 * included.
 *
 *   bench/bench_whole RUNS JUDGECTL MAPDIR CASEFILE
 *
 * runs `JUDGECTL check --timing --maps MAPDIR CASEFILE` RUNS times on one
 * processor (the one this program starts on), each
 * timed with CLOCK_MONOTONIC from spawning it to reaping it and its
 * processor time taken from wait4(), counts the cases from its closing
 * "N passed, N failed" line, and prints the medians: cases per second of
 * wall time and of processor time (user and system: on a busy machine
 * the wall time counts the waits for a processor too), and the split of
 * the wall time its "timing:" line reports (reading the case files and
 * maps, adjudicating).  A shell timing the command with `date` before and
 * after would also count starting `date`: this is why the timing is done
 * in C.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 100
#define OUTPUT_MAX 65536  /* the tail of judgectl's output kept */

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What one run measured. */
typedef struct run {
    double wall, cpu;           /* seconds */
    double reading, adjudicating; /* ms, from its timing line */
    long cases;
} run;

/* Read the child's output to its end, keeping the tail in out. */
static void read_tail(int fd, char *out, size_t size)
{
    size_t len = 0;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            if (len == size - 1) { /* keep the second half */
                memmove(out, out + size / 2, len - size / 2);
                len -= size / 2;
            }
            out[len++] = buf[i];
        }
    }
    out[len] = '\0';
}

static int run_once(char **argv, run *r)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    double start = now_s();
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(rc));
        close(fds[0]);
        return -1;
    }
    static char out[OUTPUT_MAX];
    read_tail(fds[0], out, sizeof out);
    close(fds[0]);
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    r->wall = now_s() - start;
    r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    const char *t = strstr(out, "timing: reading ");
    long passed, failed;
    const char *last = t ? strchr(t, '\n') : NULL;
    if (!t || !last ||
        sscanf(t, "timing: reading %lf ms (case files and maps), "
                  "adjudicating %lf ms", &r->reading, &r->adjudicating) != 2 ||
        sscanf(last + 1, "%ld passed, %ld failed", &passed, &failed) != 2) {
        fprintf(stderr, "%s printed no timing or closing line\n", argv[0]);
        return -1;
    }
    r->cases = passed + failed;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: bench_whole RUNS JUDGECTL MAPDIR CASEFILE\n");
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "RUNS must be 1 to %d\n", MAX_RUNS);
        return 2;
    }
    char *cmd[] = {argv[2], "check", "--timing", "--maps", argv[3],
                   argv[4], NULL};
    cpu_set_t one; /* the children inherit it: a single core */
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        perror("sched_setaffinity");
    static double wall[MAX_RUNS], cpu[MAX_RUNS], reading[MAX_RUNS],
        adjudicating[MAX_RUNS];
    long cases = 0;
    for (int i = 0; i < runs; i++) {
        run r;
        if (run_once(cmd, &r) != 0)
            return 1;
        wall[i] = r.wall;
        cpu[i] = r.cpu;
        reading[i] = r.reading;
        adjudicating[i] = r.adjudicating;
        cases = r.cases;
    }
    double w = median(wall, runs), c = median(cpu, runs);
    printf("judgectl check on %ld cases, one core, median of %d runs: "
           "%.0f cases/s (whole process, %.2f s wall), %.0f cases/s of "
           "processor time "
           "(%.2f s user+system); of the wall time, reading %.0f ms, "
           "adjudicating %.0f ms\n",
           cases, runs, (double)cases / w, w, (double)cases / c, c,
           median(reading, runs), median(adjudicating, runs));
    return 0;
}
