// Operating-system calls Swift cannot import as declared (variadic ones), each as a one-line static inline
// wrapper prefixed CPlatform_. Only APNSPlatform imports this.
#ifndef CPLATFORM_SHIM_H
#define CPLATFORM_SHIM_H
#ifdef __linux__
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/vfs.h>
#endif

/// Marks the process not dumpable (no core file, no ptrace or /proc/PID/mem access by other processes of the
/// same user); 0 on success. Elsewhere than Linux there is no such switch and it returns 0.
static inline int CPlatform_disableDumping(void) {
#ifdef __linux__
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#else
    return 0;
#endif
}

/// Flags that open a directory only to look things up in it (`openat`, `fstatat`), needing search permission
/// on the path but not read permission on the directory: O_PATH on Linux (Swift sees it only under
/// _GNU_SOURCE), O_RDONLY (0) elsewhere.
static inline int CPlatform_lookupOnlyFlags(void) {
#ifdef __linux__
    return __O_PATH;
#else
    return 0;
#endif
}

/// Copies up to `length` bytes waiting in the pipe `from` into the pipe `to` without taking them from `from`
/// (`tee(2)`, declared only under _GNU_SOURCE), never waiting: how many were copied, or -1. Elsewhere than Linux
/// it copies nothing and returns -1.
static inline long CPlatform_copyWaitingPipeBytes(int from, int to, unsigned long length) {
#ifdef __linux__
    extern long tee(int, int, unsigned long, unsigned int);
    return tee(from, to, length, 2 /* SPLICE_F_NONBLOCK */);
#else
    (void)from;
    (void)to;
    (void)length;
    return -1;
#endif
}

/// The magic number of the file system the descriptor is on (`fstatfs`'s f_type: 0x9fa0 for /proc,
/// 0x62656572 for /sys); 0 when it cannot be told, and always 0 elsewhere than Linux.
static inline long CPlatform_fileSystemMagic(int fd) {
#ifdef __linux__
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return 0;
    return (long)info.f_type;
#else
    (void)fd;
    return 0;
#endif
}
#endif
