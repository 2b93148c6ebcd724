/** A whole-number uptime percentage of the judged probes, null without any (forensics and its vantages). */
export const uptimePct = (healthy: number, probes: number): number | null => (probes > 0 ? Math.round((100 * healthy) / probes) : null);
