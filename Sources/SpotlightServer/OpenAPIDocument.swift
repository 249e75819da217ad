/// The API's OpenAPI 3.1 document, written by hand and served at
/// `/v1/openapi.json`. `OpenAPIDocumentTests` checks that every route of
/// ``Routes/all`` and every ``APIError/Code`` is in it.
enum OpenAPIDocument {
    static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "OpenSpotlight service",
        "version": "1",
        "description": "The resident search service of OpenSpotlight (`spotlight serve`): system-wide search across every registered app's Core Spotlight index, grouped by app, and the actions that follow. Served on a Unix socket in $XDG_RUNTIME_DIR/openspotlight (mode 0600) and, when asked, on 127.0.0.1. POST requests carry `Authorization: Bearer <token>` with the token of the 0600 file beside the socket. No CORS: requests from other origins are refused (403 forbiddenOrigin)."
      },
      "servers": [{"url": "http://127.0.0.1:7780"}],
      "components": {
        "securitySchemes": {"token": {"type": "http", "scheme": "bearer", "description": "The contents of $XDG_RUNTIME_DIR/openspotlight/token."}},
        "responses": {
          "Error": {"description": "An error with a stable code", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        },
        "parameters": {
          "ref": {"name": "ref", "in": "query", "required": true, "description": "A result reference: <bundle id>/<index>/<item id>.", "schema": {"type": "string"}}
        },
        "schemas": {
          "Error": {
            "type": "object", "required": ["error"],
            "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {
              "code": {"type": "string", "enum": ["invalidRequest", "queryTooLong", "bodyTooLarge", "unauthorized", "forbiddenOrigin", "notFound", "methodNotAllowed", "appNotRegistered", "resultNotFound", "notContinuable", "launchFailed", "notHandled", "actionFailed", "registryUnavailable", "invalidRegistration", "storeUnavailable", "internalError"]},
              "message": {"type": "string", "description": "A sentence a person can act on."}}}}
          },
          "App": {
            "type": "object", "required": ["bundleIdentifier", "displayName", "activityTypes", "supportsSearchContinuation"],
            "properties": {"bundleIdentifier": {"type": "string"}, "displayName": {"type": "string"},
              "icon": {"type": ["string", "null"], "description": "/v1/apps/<bundle id>/icon when the app's icon is an image file"},
              "activityTypes": {"type": "array", "items": {"type": "string"}}, "supportsSearchContinuation": {"type": "boolean"}}
          },
          "Action": {
            "type": "object", "required": ["kind", "label", "uri"],
            "properties": {"kind": {"type": "string", "enum": ["call", "email", "navigate", "openURL"]}, "label": {"type": "string"}, "uri": {"type": "string"}}
          },
          "Result": {
            "type": "object", "required": ["reference", "title", "actions", "score", "explanation"],
            "properties": {
              "reference": {"type": "string"}, "title": {"type": "string"}, "description": {"type": ["string", "null"]},
              "thumbnail": {"type": ["string", "null"], "description": "/v1/thumbnail?ref=… when the item has thumbnail data"},
              "thumbnailURL": {"type": ["string", "null"]}, "contentType": {"type": ["string", "null"]},
              "actions": {"type": "array", "items": {"$ref": "#/components/schemas/Action"}},
              "score": {"type": "number"}, "explanation": {"type": "string"},
              "rating": {"type": ["number", "null"], "minimum": 0, "maximum": 5}, "ratingDescription": {"type": ["string", "null"]},
              "price": {"type": ["number", "null"]}, "address": {"type": ["string", "null"]},
              "latitude": {"type": ["number", "null"]}, "longitude": {"type": ["number", "null"]}, "distance": {"type": ["number", "null"]}
            }
          },
          "Group": {
            "type": "object", "required": ["app", "results", "hasMoreResults", "offersSearchInApp"],
            "properties": {"app": {"$ref": "#/components/schemas/App"}, "results": {"type": "array", "items": {"$ref": "#/components/schemas/Result"}},
              "hasMoreResults": {"type": "boolean"}, "offersSearchInApp": {"type": "boolean"}}
          },
          "WebResult": {
            "type": "object", "required": ["url", "title", "associatedApps", "score", "explanation"],
            "properties": {"url": {"type": "string"}, "title": {"type": "string"}, "description": {"type": ["string", "null"]},
              "imageURL": {"type": ["string", "null"]}, "app": {"type": ["string", "null"]}, "appName": {"type": ["string", "null"]},
              "appMatch": {"type": ["string", "null"]}, "deepLink": {"type": ["string", "null"]}, "appStoreID": {"type": ["string", "null"]},
              "associatedApps": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number"}, "explanation": {"type": "string"}}
          },
          "SearchResponse": {
            "type": "object", "required": ["query", "root", "groups", "web", "unavailableApps", "problems", "tookMilliseconds"],
            "properties": {"query": {"type": "string"}, "root": {"type": "string"},
              "groups": {"type": "array", "items": {"$ref": "#/components/schemas/Group"}},
              "web": {"type": "array", "items": {"$ref": "#/components/schemas/WebResult"}},
              "unavailableApps": {"type": "array", "items": {"type": "string"}, "description": "Apps whose stores could not be read this time (deleted, damaged, locked)"},
              "problems": {"type": "array", "items": {"type": "string"}}, "tookMilliseconds": {"type": "number"},
              "publicResults": {"type": "array", "items": {"$ref": "#/components/schemas/PublicResult"}, "description": "The public index's results, when the device opted in"}}
          },
          "PublicResult": {
            "type": "object", "required": ["kind", "title", "site", "users", "score"],
            "properties": {"kind": {"type": "string", "enum": ["activity", "page"]}, "title": {"type": "string"}, "description": {"type": ["string", "null"]},
              "url": {"type": ["string", "null"]}, "site": {"type": "string"}, "users": {"type": "integer"}, "score": {"type": "number"},
              "app": {"type": ["string", "null"]}, "appName": {"type": ["string", "null"]}, "appMatch": {"type": ["string", "null"]}, "publicApp": {"type": ["string", "null"]}}
          },
          "PlaceSuggestion": {
            "type": "object", "required": ["reference", "app", "appName", "attribution", "name", "actions", "lastViewed"],
            "properties": {"reference": {"type": "string", "description": "The activity: POST /v1/open opens it, POST /v1/action acts on it"},
              "app": {"type": "string"}, "appName": {"type": "string"}, "attribution": {"type": "string", "description": "From <app>"},
              "name": {"type": "string"}, "address": {"type": ["string", "null"]}, "latitude": {"type": ["number", "null"]}, "longitude": {"type": ["number", "null"]},
              "phoneNumber": {"type": ["string", "null"]}, "actions": {"type": "array", "items": {"$ref": "#/components/schemas/Action"}},
              "lastViewed": {"type": "string", "format": "date-time"}}
          },
          "OpenResponse": {
            "type": "object", "required": ["app", "appName", "activityType", "output", "recordedSelection"],
            "properties": {"app": {"type": "string"}, "appName": {"type": "string"}, "activityType": {"type": "string"}, "output": {"type": "string"}, "recordedSelection": {"type": "boolean"}}
          }
        }
      },
      "paths": {
        "/": {"get": {"summary": "The search page (HTML, no external assets)", "responses": {"200": {"description": "The page", "content": {"text/html": {}}}}}},
        "/v1/search": {"get": {
          "summary": "Search every app, grouped by app, then web results",
          "parameters": [
            {"name": "q", "in": "query", "required": true, "description": "What the user typed (the last word is a prefix unless a space or punctuation follows it); at most 1,024 UTF-8 bytes", "schema": {"type": "string"}},
            {"name": "perApp", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 25, "default": 3}},
            {"name": "web", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 10, "default": 3}},
            {"name": "near", "in": "query", "description": "latitude,longitude: results with coordinates rank by their distance from here", "schema": {"type": "string"}},
            {"name": "within", "in": "query", "description": "with near: only results within this many kilometres", "schema": {"type": "number", "exclusiveMinimum": 0, "maximum": 20100}}],
          "responses": {"200": {"description": "Results", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchResponse"}}}},
            "400": {"$ref": "#/components/responses/Error"}, "414": {"$ref": "#/components/responses/Error"}}}},
        "/v1/search/live": {"get": {
          "summary": "Search as you type over a WebSocket",
          "description": "Upgrade to a WebSocket, then send one JSON text message per keystroke: {\"id\": 7, \"q\": \"pea\", \"perApp\": 3, \"web\": 3}. Each message cancels the search still running for the previous one. Answers: {\"id\": 7, \"type\": \"results\", \"results\": SearchResponse} or {\"id\": 7, \"type\": \"error\", \"error\": {\"code\", \"message\"}}.",
          "responses": {"101": {"description": "Switching to the WebSocket protocol"}, "400": {"$ref": "#/components/responses/Error"}, "403": {"$ref": "#/components/responses/Error"}}}},
        "/v1/open": {"post": {
          "summary": "Open a result in its app (it receives the NSUserActivity); a handled open counts as a selection",
          "security": [{"token": []}],
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {"reference": {"type": "string"}, "web": {"type": "string", "description": "A web result's URL"}}}}}},
          "responses": {"200": {"description": "Opened", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OpenResponse"}}}},
            "401": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "502": {"$ref": "#/components/responses/Error"}}}},
        "/v1/search-in-app": {"post": {
          "summary": "Search in App: hand the app what the user typed (CSQueryContinuationActionType)",
          "security": [{"token": []}],
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["app", "text"], "properties": {"app": {"type": "string"}, "text": {"type": "string"}}}}}},
          "responses": {"200": {"description": "Opened", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OpenResponse"}}}},
            "401": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}}}},
        "/v1/action": {"post": {
          "summary": "Carry out one of a result's actions (call, email, navigate, openURL) through the desktop's opener",
          "description": "The URI is derived from the stored item, never taken from the request.",
          "security": [{"token": []}],
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["reference", "kind"], "properties": {"reference": {"type": "string"}, "kind": {"type": "string", "enum": ["call", "email", "navigate", "openURL"]}}}}}},
          "responses": {"200": {"description": "Done", "content": {"application/json": {"schema": {"type": "object", "properties": {"kind": {"type": "string"}, "label": {"type": "string"}, "uri": {"type": "string"}, "command": {"type": "array", "items": {"type": "string"}}}}}}},
            "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"}, "502": {"$ref": "#/components/responses/Error"}}}},
        "/v1/impressions": {"post": {
          "summary": "Report the results a client displayed (impressions, used in ranking); written in batches every few seconds",
          "security": [{"token": []}],
          "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["references"], "properties": {"references": {"type": "array", "maxItems": 500, "items": {"type": "string"}}}}}}},
          "responses": {"202": {"description": "Taken into the next batch", "content": {"application/json": {"schema": {"type": "object", "properties": {"accepted": {"type": "integer"}}}}}},
            "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"}}}},
        "/v1/suggestions/places": {"get": {
          "summary": "Places to offer before anything is typed (the activities viewed last), or for text asking for one (\"meet me at ray\")",
          "parameters": [{"name": "context", "in": "query", "required": false, "schema": {"type": "string"}},
            {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 25, "default": 3}}],
          "responses": {"200": {"description": "The suggestions, most recently viewed first", "content": {"application/json": {"schema": {"type": "object", "required": ["suggestions", "problems"],
            "properties": {"context": {"type": ["string", "null"]}, "suggestions": {"type": "array", "items": {"$ref": "#/components/schemas/PlaceSuggestion"}}, "problems": {"type": "array", "items": {"type": "string"}}}}}}},
            "400": {"$ref": "#/components/responses/Error"}}}},
        "/v1/show": {"get": {
          "summary": "Every attribute of a result, as mdls prints them",
          "parameters": [{"$ref": "#/components/parameters/ref"}],
          "responses": {"200": {"description": "The item", "content": {"application/json": {"schema": {"type": "object", "properties": {"reference": {"type": "string"}, "attributes": {"type": "object", "additionalProperties": {"type": "string"}}, "indexedAt": {"type": "string", "format": "date-time"}, "expiresAt": {"type": "string", "format": "date-time"}, "views": {"type": "integer"}, "selections": {"type": "integer"}}}}}},
            "404": {"$ref": "#/components/responses/Error"}}}},
        "/v1/explain": {"get": {
          "summary": "Why a result ranks where it does for a text, or which words it lacks",
          "parameters": [{"$ref": "#/components/parameters/ref"}, {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}}],
          "responses": {"200": {"description": "The explanation", "content": {"application/json": {"schema": {"type": "object", "properties": {"reference": {"type": "string"}, "text": {"type": "string"}, "matches": {"type": "boolean"}, "rank": {"type": ["integer", "null"]}, "matchCount": {"type": "integer"}, "score": {"type": ["number", "null"]}, "summary": {"type": "string"}, "terms": {"type": "array", "items": {"type": "object", "properties": {"term": {"type": "string"}, "foundIn": {"type": "array", "items": {"type": "string"}}}}}}}}}},
            "404": {"$ref": "#/components/responses/Error"}}}},
        "/v1/apps": {"get": {"summary": "The registered apps", "responses": {"200": {"description": "Apps", "content": {"application/json": {"schema": {"type": "object", "properties": {"apps": {"type": "array", "items": {"$ref": "#/components/schemas/App"}}, "problems": {"type": "array", "items": {"type": "string"}}}}}}}}}},
        "/v1/apps/{bundleIdentifier}/icon": {"get": {"summary": "An app's icon image", "parameters": [{"name": "bundleIdentifier", "in": "path", "required": true, "schema": {"type": "string"}}],
          "responses": {"200": {"description": "The image", "content": {"image/png": {}, "image/jpeg": {}, "image/svg+xml": {}}}, "404": {"$ref": "#/components/responses/Error"}}}},
        "/v1/thumbnail": {"get": {"summary": "A result's thumbnail data as an image", "parameters": [{"$ref": "#/components/parameters/ref"}],
          "responses": {"200": {"description": "The image", "content": {"image/png": {}, "image/jpeg": {}, "image/gif": {}, "image/webp": {}, "image/svg+xml": {}}}, "404": {"$ref": "#/components/responses/Error"}}}},
        "/v1/health": {"get": {"summary": "Whether the service answers, and what maintenance last did", "responses": {"200": {"description": "Health", "content": {"application/json": {"schema": {"type": "object", "properties": {"status": {"type": "string"}, "version": {"type": "integer"}, "root": {"type": "string"}, "apps": {"type": "integer"}, "uptimeSeconds": {"type": "number"}, "lastMaintenance": {"type": ["string", "null"], "format": "date-time"}, "lastMaintenanceDeliveries": {"type": ["integer", "null"]}, "pendingImpressions": {"type": "integer"}}}}}}}}},
        "/v1/metrics": {"get": {"summary": "Metrics in Prometheus's text format", "responses": {"200": {"description": "Metrics", "content": {"text/plain": {}}}}}},
        "/v1/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}}
      }
    }
    """#
}
