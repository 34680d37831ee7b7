/** What a subscription returns: call it once to stop listening. */
export type Unsubscribe = () => void;
