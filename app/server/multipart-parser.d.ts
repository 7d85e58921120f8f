// @web3-storage/multipart-parser ships its types outside its package.json "exports": declared here.
declare module "@web3-storage/multipart-parser" {
  /** The parts of a multipart body, in order, each with its bytes still streaming. */
  export function streamMultipart(
    body: ReadableStream<Uint8Array>,
    boundary: string,
  ): AsyncGenerator<{ name: string; filename?: string; contentType: string; data: AsyncIterable<Uint8Array>; done?: boolean }>;
}
