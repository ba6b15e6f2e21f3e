// Home page: the app shell's landing screen until the chat and approval views exist.
export default function HomePage() {
  return (
    <main className="home">
      <h1>Gatehouse</h1>
      <p>
        An approval gate for AI agent tool calls: each call is allowed, denied, or held for a human
        to approve.
      </p>
    </main>
  );
}
