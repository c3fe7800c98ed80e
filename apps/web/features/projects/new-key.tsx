"use client";

import { createContext, type ReactNode, useContext, useState } from "react";

/** A key just created on this page: its plaintext is on screen until the user presses Done. */
export interface NewKey {
  name: string;
  apiKey: string;
  readOnly: boolean;
}

const NewKeyContext = createContext<{
  newKey: NewKey | null;
  setNewKey: (key: NewKey | null) => void;
} | null>(null);

/**
 * Holds the key just created for the project page: the keys panel shows it once, and "Connect an
 * SDK" puts it in its .env snippet meanwhile, so one Copy gives a working configuration.
 */
export function NewKeyProvider({ children }: { children: ReactNode }) {
  const [newKey, setNewKey] = useState<NewKey | null>(null);
  return <NewKeyContext.Provider value={{ newKey, setNewKey }}>{children}</NewKeyContext.Provider>;
}

export function useNewKey() {
  const value = useContext(NewKeyContext);
  if (!value) throw new Error("useNewKey needs a NewKeyProvider above it");
  return value;
}
