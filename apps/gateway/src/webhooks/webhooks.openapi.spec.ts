import { createOpenApiDocument } from '../openapi/openapi.export';

describe('OpenAPI document of the webhook routes', () => {
  it('documents every webhook route with API key security, its request schema and error codes', async () => {
    const document = await createOpenApiDocument();
    const paths = document.paths;

    expect(
      Object.keys(paths)
        .filter((p) => p.startsWith('/v1/webhooks'))
        .sort(),
    ).toEqual([
      '/v1/webhooks',
      '/v1/webhooks/{webhook_id}',
      '/v1/webhooks/{webhook_id}/deliveries',
      '/v1/webhooks/{webhook_id}/replay/{event_id}',
      '/v1/webhooks/{webhook_id}/rotate-secret',
      '/v1/webhooks/{webhook_id}/test',
    ]);
    expect(Object.keys(paths['/v1/webhooks/{webhook_id}'] ?? {})).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete']),
    );
    expect(paths['/v1/webhooks/{webhook_id}']?.patch?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateWebhookRequest' } } },
    });
    expect(paths['/v1/webhooks/{webhook_id}/rotate-secret']?.post?.responses).toHaveProperty('200');
    expect(paths['/v1/webhooks/{webhook_id}/test']?.post?.responses).toHaveProperty('202');
    expect(paths['/v1/events']?.get?.parameters).toEqual(
      expect.arrayContaining(
        ['limit', 'starting_after', 'type', 'created_after', 'created_before'].map((name): unknown =>
          expect.objectContaining({ name, in: 'query' }),
        ),
      ),
    );
    expect(paths['/v1/events/{event_id}']?.get?.responses).toHaveProperty('404');
    expect(paths['/v1/webhooks']?.post?.security).toEqual([{ api_key: [] }]);
    expect(paths['/v1/webhooks']?.post?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateWebhookRequest' } } },
    });
    expect(document.components?.schemas?.CreateWebhookRequest).toMatchObject({
      additionalProperties: false,
      required: ['url', 'events'],
    });
    // The API refuses http:// (400): the document says so, for both create and update.
    for (const name of ['CreateWebhookRequest', 'UpdateWebhookRequest']) {
      const url = (document.components?.schemas?.[name] as { properties?: { url?: object } } | undefined)
        ?.properties?.url;
      expect(url).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048 });
      const pattern = new RegExp((url as { pattern?: string }).pattern ?? '');
      expect(pattern.test('https://hooks.example.com/')).toBe(true);
      expect(pattern.test('HTTPS://hooks.example.com/')).toBe(true);
      expect(pattern.test('http://hooks.example.com/')).toBe(false);
    }
    expect(Object.keys(paths['/v1/webhooks/{webhook_id}/replay/{event_id}']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['202', '404']),
    );
    expect(paths['/v1/webhooks/{webhook_id}']?.delete?.responses).toHaveProperty('204');
    expect(paths['/v1/webhooks/{webhook_id}/deliveries']?.get?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'limit', in: 'query' }),
        expect.objectContaining({ name: 'offset', in: 'query' }),
      ]),
    );
    expect(document.components?.schemas?.WebhookDeliveryList).toMatchObject({
      required: expect.arrayContaining(['deliveries', 'limit', 'offset', 'has_more']),
    });
    const delivery = document.components?.schemas?.WebhookDelivery as { properties?: object } | undefined;
    expect(Object.keys(delivery?.properties ?? {})).toEqual(
      expect.arrayContaining(['attempts', 'failure_reason', 'retry_count', 'next_attempt_at']),
    );
    expect(JSON.stringify(delivery)).not.toContain('response_body');
  });
});
