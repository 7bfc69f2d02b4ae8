/**
 * Calls `stop` once this process's parent is gone. `npm start` and
 * `npm run mock` exec their script where the shell honours `exec`; where a
 * shell is left between npm and this process, or npm itself is killed, the
 * parent can go without passing a signal on, and this process would be left
 * holding its port. Node keeps `process.ppid` as it was at start, so the
 * parent is asked whether it is still there (signal 0), four times a second,
 * without keeping the process alive.
 */
export function stopWithParent(stop) {
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (alive(parent)) return;
    clearInterval(orphaned);
    stop();
  }, 250);
  orphaned.unref();
}

/** Whether a process exists (one of another user's answers EPERM: it exists). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
