"""League management's public edge: REST controllers (``http``) and GraphQL mutations
(``graphql_mutations``), both thin over ``services.league.organise``."""
