// The frames of the UIs' default prompts (Open WebUI's DEFAULT_*_PROMPT_TEMPLATE in
// backend/open_webui/config.py, LibreChat's title prompts), shortened, with a conversation filled in.
const history = '<chat_history>\nUSER: Who directed Green Book?\nASSISTANT: Peter Farrelly.\n</chat_history>';
export const openWebUiPrompts = {
  title: `### Task:\nGenerate a concise title summarizing the chat history.\n### Guidelines:\n- Keep it short: 2-4 words is best.\n### Output:\nJSON format: { "title": "your concise title here" }\n### Chat History:\n${history}`,
  tags: `### Task:\nGenerate 1-3 broad tags categorizing the main themes of the chat history, along with 1-3 more specific subtopic tags.\n\n### Guidelines:\n- Start with high-level domains\n\n### Output:\nJSON format: { "tags": ["tag1", "tag2", "tag3"] }\n\n### Chat History:\n${history}`,
  followUps: `### Task:\nSuggest 3-5 relevant follow-up questions or prompts that the user might naturally ask next in this conversation as a **user**, based on the chat history.\n### Output:\nJSON format: { "follow_ups": ["Question 1?", "Question 2?"] }\n### Chat History:\n${history}`,
  autocomplete: `### Task:\nYou are an autocompletion system. Continue the text in \`<text>\` based on the **completion type** in \`<type>\` and the given language.\n\n### **Instructions**:\n1. Analyze \`<text>\` for context and meaning.\n---\n### Context:\n${history}\n<type>search query</type>\n<text>Who wrote</text>\n#### Output:\n`,
  queries: `### Task:\nAnalyze the chat history to determine the necessity of generating search queries, in the given language.\n\n### Output:\nStrictly return in JSON format: { "queries": ["query1"] }\n\n### Chat History:\n${history}\n`,
};
export const libreChatTitlePrompt =
  'Provide a concise, 5-word-or-less title for the conversation, using title case conventions. Only return the title itself.\n\nConversation:\nUser: Who directed Green Book?\nAI: Peter Farrelly.';
