import React from "react";

export function List({ items, loading, error, onSelect }) {
  if (loading) {
    return <p>Loading…</p>;
  }
  return (
    <ul>
      {error && <li className="error">{error.message}</li>}
      {items.length > 0 && items.length < 100 && <li>many</li>}
      {items.map((item) => (
        <li key={item.id} onClick={() => onSelect && onSelect(item)}>
          {item.done ? <s>{item.label}</s> : item.label || "untitled"}
          {(item.tags && item.tags.length) || null}
        </li>
      ))}
    </ul>
  );
}

export default function App(props) {
  const [state, setState] = React.useState(props.initial ?? {});
  React.useEffect(() => {
    let cancelled = false;
    fetch("/api").then((r) => {
      if (!cancelled && r.ok) setState(r);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return state ? <List {...state} /> : null;
}
