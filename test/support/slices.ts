/** `process.threadCpuUsage` (Node 23.9 and later), which the installed Node types do not name yet. */
const threadCpuUsage = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage.bind(process);

/**
 * The longest synchronous slice of this thread's work while something runs,
 * in CPU milliseconds: what a request held the event loop, measured so a
 * busy machine does not distort it.
 *
 * A timer fires again and again while `work` runs and reads this thread's
 * CPU time (`process.threadCpuUsage`) each time; what the thread spent
 * between two firings is one stretch the event loop could not answer
 * anything else (a timer fires between two turns of the loop, so a stretch
 * is at least one slice and may be a whole turn of several). The longest
 * stretch is the answer. Wall-clock measures (`monitorEventLoopDelay`, a
 * probe's time) count the time the machine gave other processes; CPU time
 * counts only this thread's own work: the server's (it runs in this
 * process) and this test's client side, which a test keeps small while
 * measuring (checking answers against the contract waits until after).
 */
export async function longestSlice<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  const cpu = () => {
    const usage = threadCpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  let last = cpu();
  let longest = 0;
  let running = true;
  const tick = () => {
    const now = cpu();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) timer = setTimeout(tick, 1);
  };
  let timer = setTimeout(tick, 1);
  try {
    const result = await work();
    return { result, longestMs: Math.max(longest, cpu() - last) };
  } finally {
    running = false;
    clearTimeout(timer);
  }
}
