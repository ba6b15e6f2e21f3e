// The route wrapper's contracts a route relies on: its user is typed by its access (checked by
// tsc: the @ts-expect-error lines fail the type-check if the wrapper loosens), and the query
// string reaches it only through a zod schema, refused values as a 400 naming the parameter.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors';
import { handle, searchParams } from './handler';

const request = (query: string) => new Request(`http://localhost/api/x${query}`);

describe('handle(access, fn)', () => {
  it('a signed-in route receives a non-optional user; a public one may get none', () => {
    handle('signed-in', async (_request, _params, _rt, user) => Response.json(user.id));
    handle('runs:read:own', async (_request, _params, _rt, user) => Response.json(user.role));
    // @ts-expect-error a public route's caller may be nobody
    handle('public', async (_request, _params, _rt, user) => Response.json(user.id));
    handle('public', async (_request, _params, _rt, user) => Response.json(user?.id ?? null));
  });
});

describe('searchParams(request, schema)', () => {
  const Schema = z.object({ limit: z.coerce.number().int().min(1).optional(), after: z.string().optional() });

  it('returns the values the schema checked', () => {
    expect(searchParams(request('?limit=5&after=x&ignored=1'), Schema)).toEqual({ limit: 5, after: 'x' });
  });

  it('a value the schema refuses is a 400 naming the parameter', () => {
    const error = (() => {
      try {
        searchParams(request('?limit=0'), Schema);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, details: { fields: [expect.objectContaining({ path: 'limit' })] } });
  });

  it('a NUL character anywhere is a 400', () => {
    expect(() => searchParams(request('?after=a%00b'), Schema)).toThrow(AppError);
  });
});
