// Preloaded into a process the bench runs to its end (`--import`): as it exits, it writes its peak
// resident set (the kernel's ru_maxrss) to stderr, which the bench reads. Polling /proc/PID/status
// from outside misses a peak in the last moments of a short process.
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `\npeak RSS ${process.resourceUsage().maxRSS} kB\n`));
