"""The game service: the engines (``rules/``) and, around them, one package per concern
(``application/``, ``fairness/``, ``records/``, ``results/``, ``audit/``, ``edge/``,
``bots/``). docs/engine.md ("Where things live in services/game") walks through them."""
