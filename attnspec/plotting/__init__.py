"""Figure style and figure layouts (matplotlib, Agg backend); no computation of results here."""
