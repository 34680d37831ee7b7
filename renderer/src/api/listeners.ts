/** A tiny typed listener set; a throwing listener never stops the others. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (error) {
        console.error('A listener failed', error);
      }
    }
  }

  get size(): number {
    return this.set.size;
  }
}
