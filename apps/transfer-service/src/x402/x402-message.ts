/** The base64 message bytes kept with a payment, back to bytes. */
export const messageBytesOf = (message: string): Uint8Array => new Uint8Array(Buffer.from(message, 'base64'));
