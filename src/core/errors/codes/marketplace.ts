/** Error codes of the marketplace service (rendered in the G2 envelope). */
export const marketplaceErrors = {
  MARKETPLACE_VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  MARKETPLACE_API_KEY_MISSING: { status: 401, message: 'No API key supplied: pass it as the apikey query parameter or the X-CE-KEY header.' },
  MARKETPLACE_API_KEY_UNKNOWN: { status: 401, message: 'API key is unknown.' },
  MARKETPLACE_MERCHANT_ONLY: { status: 403, message: 'This operation needs a merchant API key; a channel key cannot use it.' },
  MARKETPLACE_CHANNEL_ONLY: { status: 403, message: 'This operation needs a channel API key; a merchant key cannot use it.' },
  MARKETPLACE_ORDER_NOT_FOUND: { status: 404, message: 'No such order.' },
  MARKETPLACE_ORDER_LINE_NOT_FOUND: { status: 404, message: 'No such order line.' },
  MARKETPLACE_PRODUCT_NOT_FOUND: { status: 404, message: 'No such product.' },
  MARKETPLACE_BACKORDER_NOT_FOUND: { status: 404, message: 'No such backorder.' },
  MARKETPLACE_CANCELLATION_NOT_FOUND: { status: 404, message: 'No such cancellation.' },
  MARKETPLACE_SHIPMENT_NOT_FOUND: { status: 404, message: 'No such shipment.' },
  MARKETPLACE_RETURN_NOT_FOUND: { status: 404, message: 'No such return.' },
  MARKETPLACE_DUPLICATE_CHANNEL_ORDER: { status: 409, message: 'This channel already created an order with this ChannelReference.' },
  MARKETPLACE_ALREADY_ACKNOWLEDGED: { status: 409, message: 'The order has already been acknowledged.' },
  MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE: { status: 409, message: 'This merchant reference is already in use.' },
  MARKETPLACE_ORDER_NOT_OPEN: { status: 409, message: 'The order has no open quantity left for this operation.' },
  MARKETPLACE_QUANTITY_EXCEEDED: { status: 400, message: 'A line quantity exceeds what is open on the order line.' },
  MARKETPLACE_PRODUCT_DEACTIVATED: { status: 409, message: 'The product was deactivated; its reference cannot be reused.' },
  MARKETPLACE_PRODUCT_NESTING: { status: 400, message: 'Products nest one level only: a child cannot have children.' },
  MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE: { status: 409, message: 'This ChannelReference is already used by another product of this channel.' },
  MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE: { status: 400, message: 'A ChannelReference was never acknowledged in Created by this channel.' }
} as const
