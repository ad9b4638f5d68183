export interface ErrorDetail {
  /** Where the problem is: a JSON pointer into the merged input, e.g. "/email_address". */
  pointer?: string
  /** Which part of the request: body, querystring, params or headers. */
  location?: string
  message: string
}

export interface AppErrorOptions {
  details?: ErrorDetail[]
  headers?: Record<string, string>
  cause?: unknown
}

/**
 * The one error type services throw, made by the factory of their error table (errors/define.ts);
 * the HTTP layer turns it into each service's error shape.
 */
export class AppError extends Error {
  readonly details: ErrorDetail[] | undefined
  readonly headers: Record<string, string> | undefined

  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    options: AppErrorOptions = {}
  ) {
    super(message, { cause: options.cause })
    this.name = 'AppError'
    this.details = options.details
    this.headers = options.headers
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}
