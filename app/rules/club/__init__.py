"""Club events' rules, pure like the rest of app/rules/: an event's settings (`settings`),
pairing a round (`pairing`), what a result is worth (`tournament_points`), the ranked
standings (`standings`) and a list's verdict at the event (`lists`)."""
