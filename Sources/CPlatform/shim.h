// Operating-system calls Swift cannot import as declared (variadic ones), each as a one-line static inline
// wrapper prefixed CPlatform_. Only APNSPlatform imports this.
#ifndef CPLATFORM_SHIM_H
#define CPLATFORM_SHIM_H
#ifdef __linux__
#include <sys/prctl.h>
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

/// The process's dumpable flag (1 dumpable, 0 not, -1 unknown).
static inline int CPlatform_isDumpable(void) {
#ifdef __linux__
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
#else
    return -1;
#endif
}
#endif
