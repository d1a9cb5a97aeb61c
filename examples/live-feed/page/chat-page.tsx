/**
 * A chat page as the AI SDK's docs write one: `useChat` with `DefaultChatTransport` (its `api`
 * pointed at toolrail's chat handler), the AI SDK's own tool approvals, `stop()`, and `resume` after
 * a reload. The chat id is in the address (`?chat=`), so a reload resumes the same chat.
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { DynamicToolUIPart, UIMessage } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

const address = new URL(window.location.href);
const resume = address.searchParams.has('chat');
const chatId = address.searchParams.get('chat') ?? `chat-${crypto.randomUUID()}`;
if (!resume) {
  address.searchParams.set('chat', chatId);
  window.history.replaceState(null, '', address);
}

function ChatPage() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, status, stop, error, addToolApprovalResponse } = useChat({
    id: chatId,
    resume,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main>
      <header>
        <h1>toolrail · a session behind useChat</h1>
        <span id="status">{status}</span>
      </header>
      {messages.map((message) => (
        <Message key={message.id} message={message} answer={addToolApprovalResponse} />
      ))}
      {error && <p className="error">{error.message}</p>}
      <form
        id="send"
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === '') return;
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input id="text" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask…" />
        <button type="submit" disabled={busy}>
          Send
        </button>
        {busy && (
          <button type="button" id="stop" onClick={() => void stop()}>
            Stop
          </button>
        )}
      </form>
    </main>
  );
}

type Answer = ReturnType<typeof useChat>['addToolApprovalResponse'];

function Message({ message, answer }: { message: UIMessage; answer: Answer }) {
  return (
    <section className={message.role} data-message-id={message.id}>
      {message.parts.map((part, index) => {
        if (part.type === 'text')
          return (
            <p key={index} className="text">
              {part.text}
            </p>
          );
        if (part.type === 'dynamic-tool') return <Tool key={part.toolCallId} part={part} answer={answer} />;
        if (part.type === 'data-verdict') {
          const { tool, verdict, reasons } = part.data as {
            tool: string;
            verdict: string;
            reasons: { code: string }[];
          };
          return (
            <p key={index} className={`verdict ${verdict}`}>
              {tool}: {verdict} {reasons.map(({ code }) => `[${code}]`).join(' ')}
            </p>
          );
        }
        return null;
      })}
    </section>
  );
}

function Tool({ part, answer }: { part: DynamicToolUIPart; answer: Answer }) {
  return (
    <div className={`tool ${part.state}`} data-call-id={part.toolCallId}>
      <code className="name">{part.toolName}</code> <code className="input">{JSON.stringify(part.input)}</code>
      {part.state === 'approval-requested' && (
        <span className="approval">
          {part.approval.requestReason}
          <button onClick={() => void answer({ id: part.approval.id, approved: true })}>Approve</button>
          <button onClick={() => void answer({ id: part.approval.id, approved: false, reason: 'Denied on the page.' })}>
            Deny
          </button>
        </span>
      )}
      {part.state === 'output-available' && <pre className="output">{JSON.stringify(part.output)}</pre>}
      {part.state === 'output-error' && <pre className="output">{part.errorText}</pre>}
      {part.state === 'output-denied' && <span className="decision">denied</span>}
    </div>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<ChatPage />);
