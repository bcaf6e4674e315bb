/**
 * Watches how late a 20 ms timer fires until stopped: the time this process waited for a CPU or behind
 * other work. The service runs in the test's process, so its own deadline timer was delayed as much.
 * `total` sums the delays (a short round), `max` is the longest single one (how late one timer can be).
 */
export function watchTimerLag(): { peek(): { total: number; max: number }; stop(): { total: number; max: number } } {
  const every = 20;
  let total = 0;
  let max = 0;
  let expected = performance.now() + every;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = Math.max(0, now - expected);
    total += late;
    max = Math.max(max, late);
    expected = now + every;
  }, every);
  return {
    peek() {
      return { total, max };
    },
    stop() {
      clearInterval(timer);
      return { total, max };
    },
  };
}
