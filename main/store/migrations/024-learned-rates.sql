-- Issue 26: the price of one message part per delivery option, learned from what the gateway
-- charged (the credit before and after a send, over the parts it accepted), per account. A later
-- send's price replaces the earlier one. Prices are ten-thousandths of `currency` (protocol/money.ts).
CREATE TABLE learned_rates (
  account_id TEXT NOT NULL,
  delivery_option TEXT NOT NULL,
  price_units INTEGER NOT NULL CHECK (price_units > 0),
  currency TEXT NOT NULL,
  parts INTEGER NOT NULL,
  learned_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, delivery_option)
);
