import type { ToolIssue } from './tool-issue';

/** Renders schema issues as one line each, `- <path>: <message>`, with `(root)` for an empty path. */
export function formatToolIssues(issues: readonly ToolIssue[]): string {
  return issues
    .map((issue) => `- ${issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.')}: ${issue.message}`)
    .join('\n');
}
