export const tripsErrors = {
  TRIPS_NOT_AUTHENTICATED: { status: 401, message: 'Not Authenticated' },
  TRIPS_VALIDATION_FAILED: { status: 422, message: 'A parameter is missing or invalid.' },
  TRIPS_USER_NOT_FOUND: { status: 404, message: 'No such user.' },
  TRIPS_TOUR_NOT_FOUND: { status: 404, message: 'No such tour.' },
  TRIPS_PLAN_NOT_FOUND: { status: 404, message: 'No such plan.' },
  TRIPS_EMAIL_TAKEN: { status: 422, message: 'A user with this e-mail address already exists.' },
  TRIPS_MEMBER_EXISTS: { status: 422, message: 'User Tour relationship already exists' },
  TRIPS_MEMBER_USER_UNKNOWN: { status: 422, message: 'User must exist' },
  TRIPS_CALLER_UNKNOWN: { status: 403, message: 'No user has the e-mail address of this token; create it with POST /user first.' },
  TRIPS_NOT_OWNER: { status: 403, message: 'Only the user themself may change this user.' },
  TRIPS_NOT_CREATOR: { status: 403, message: 'Only the tour creator may do this.' },
  TRIPS_CREATOR_MISMATCH: { status: 403, message: 'A tour can only be created with yourself as creator.' }
} as const
