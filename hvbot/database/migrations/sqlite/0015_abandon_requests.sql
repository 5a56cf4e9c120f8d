-- Abandoning a game under way asks the other players first (`/game abandon` after the first
-- move): the same kind of request as taking back a move, answered with the same buttons, so
-- it is kept in the same table with its kind.
ALTER TABLE undo_requests ADD COLUMN kind TEXT NOT NULL DEFAULT 'undo';
