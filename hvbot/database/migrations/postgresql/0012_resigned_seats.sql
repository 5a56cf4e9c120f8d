-- Results that hold: a seat whose person resigned keeps who they were (`resigned_user_id`), so
-- the game's result counts for them, as a loss, when it ends; an AI plays the seat meanwhile.
ALTER TABLE seats ADD COLUMN resigned_user_id INTEGER;
