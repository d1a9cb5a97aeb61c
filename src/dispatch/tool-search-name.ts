/** Name of the built-in tool that reveals deferred tools. Reserved: no other tool may use it. */
export const TOOL_SEARCH_NAME = 'tool_search';
