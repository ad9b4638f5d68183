/** Error codes of the feed service. Messages are the original course API's where it had one. */
export const feedErrors = {
  FEED_VALIDATION_FAILED: { status: 422, message: 'Validation failed.' },
  FEED_INVALID_POST: { status: 422, message: 'Validation failed, entered data is incorrect.' },
  FEED_NOT_AUTHENTICATED: { status: 401, message: 'Not authenticated.' },
  FEED_TOKEN_INVALID: { status: 401, message: 'Not authenticated: the token is invalid or has expired; log in again.' },
  FEED_EMAIL_UNKNOWN: { status: 401, message: 'A user with this email could not be found.' },
  FEED_WRONG_PASSWORD: { status: 401, message: 'Wrong password!' },
  FEED_USER_NOT_FOUND: { status: 404, message: 'User not found.' },
  FEED_POST_NOT_FOUND: { status: 404, message: 'Could not find post.' },
  FEED_NOT_AUTHORIZED: { status: 403, message: 'Not authorized!' },
  FEED_NO_IMAGE: { status: 422, message: 'No image provided.' },
  FEED_NO_FILE_PICKED: { status: 422, message: 'No file picked.' },
  FEED_IMAGE_INVALID: { status: 422, message: 'The image must be a PNG or JPEG file.' },
  FEED_IMAGE_TOO_LARGE: { status: 422, message: 'The image is too large.' },
  FEED_IMAGE_UNKNOWN: { status: 422, message: 'The image path does not name an image you may use.' },
  FEED_IMAGE_NOT_FOUND: { status: 404, message: 'Image not found.' },
  FEED_MULTIPART_INVALID: { status: 400, message: 'The multipart body could not be read.' }
} as const
