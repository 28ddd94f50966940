#!/usr/bin/env python3
"""Runs a program on a pseudo-terminal and plays a script of keystrokes against it, for apnsctl's
end-to-end tests of what only a terminal shows (passphrase prompts, Ctrl-C/Ctrl-Z, progress, colour).

Usage: pty-run.py SPEC_JSON
SPEC: {"argv": [...], "env": {NAME: value, or null to unset}, "columns": 80, "timeout": 60,
       "steps": [{"expect": "text", "timeout": 20}, {"send": "text"}]}
Prints one JSON object: {"transcript": everything the terminal received, "status": exit status or null,
"signal": the terminating signal or null, "failed_step": index of a step that timed out or null}.
Only the standard library: python3 is all the tests need.
"""
import json, os, pty, select, signal, sys, time

def main():
    spec = json.loads(sys.argv[1])
    env = dict(os.environ)
    for key, value in spec.get("env", {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    env.setdefault("TERM", "xterm")
    deadline = time.time() + spec.get("timeout", 60)
    pid, fd = pty.fork()
    if pid == 0:
        try:
            import fcntl, struct, termios
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, spec.get("columns", 80), 0, 0))
            # As from a login shell: no blocked signals (a test runner may block SIGTERM, and children
            # inherit the mask), default dispositions.
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGTSTP, signal.SIGCONT, signal.SIGPIPE):
                signal.signal(s, signal.SIG_DFL)
            os.execvpe(spec["argv"][0], spec["argv"], env)
        finally:
            os._exit(127)
    transcript = bytearray()
    seen = 0
    failed = None

    def pump(wait):
        try:
            ready, _, _ = select.select([fd], [], [], wait)
        except InterruptedError:
            return True
        if not ready:
            return True
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        transcript.extend(data)
        return True

    for i, step in enumerate(spec.get("steps", [])):
        if "send" in step:
            os.write(fd, step["send"].encode())
        elif "expect" in step:
            want = step["expect"].encode()
            end = min(deadline, time.time() + step.get("timeout", 20))
            alive = True
            while transcript.find(want, seen) < 0 and time.time() < end and alive:
                alive = pump(0.05)
            at = transcript.find(want, seen)
            if at < 0:
                failed = i
                break
            seen = at + len(want)
    status = sig = None
    while time.time() < deadline:
        alive = pump(0.05)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            while pump(0.05):
                pass
            if os.WIFEXITED(code):
                status = os.WEXITSTATUS(code)
            elif os.WIFSIGNALED(code):
                sig = os.WTERMSIG(code)
            break
        if not alive and failed is None:
            time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    print(json.dumps({"transcript": transcript.decode("utf-8", "replace"), "status": status, "signal": sig,
                      "failed_step": failed}))

main()
