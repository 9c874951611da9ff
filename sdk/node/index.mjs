// ESM entry: the same classes as the CommonJS one (one implementation).
import sdk from './index.js';

export const { Client, APIError, SignatureError, StableCashierError, verifyWebhook, VERSION } = sdk;
export default sdk;
