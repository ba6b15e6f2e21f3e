// Tells apart a response stream that ended (every answer written) from one its reader cancelled
// (the client went away), passing every chunk on unchanged.
export function watchBody(response: Response, { onEnd, onCancel }: { onEnd(): void; onCancel(): void }): Response {
  if (!response.body) {
    onEnd();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          onEnd();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        onCancel();
      }
    },
    cancel(reason) {
      onCancel();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
