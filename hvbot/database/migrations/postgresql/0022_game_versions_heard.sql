-- Each process keeps its open games in memory. A change of a game's version, or its deletion,
-- is announced to every process listening on `hvbot_games` (as "id version", or "id -" when
-- the game is gone), once the change commits: a process that hears of no newer version knows
-- its copy is the stored one, and need not read the version again before a move.
CREATE FUNCTION hvbot_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('hvbot_games', OLD.id || ' -');
    ELSE
        PERFORM pg_notify('hvbot_games', NEW.id || ' ' || NEW.version);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_version_changed AFTER UPDATE OF version ON games FOR EACH ROW
    WHEN (NEW.version IS DISTINCT FROM OLD.version) EXECUTE FUNCTION hvbot_game_changed();

CREATE TRIGGER games_deleted AFTER DELETE ON games FOR EACH ROW
    EXECUTE FUNCTION hvbot_game_changed();
