/** Session-wide counters, shown in queries and search attributes. */
export interface SessionCounters {
  turns: number;
  runs: number;
  toolCalls: number;
  blockedCalls: number;
  continuedAsNew: number;
}
