/** Names the model can call: what OpenAI, Anthropic and Gemini all accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
