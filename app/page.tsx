// Chat (placeholder until the chat view lands).
export default function HomePage() {
  return (
    <>
      <h1 className="page-title">Gatehouse</h1>
      <p className="page-lead">An approval gate for AI agent tool calls: each call is allowed, denied, or held for a human to approve.</p>
    </>
  );
}
