//! The one error answer of the API: an HTTP status (4xx for what the client sent,
//! 503 when every search slot is taken or memory is short, 500 for a bug) and a JSON body
//! `{"error": "<what is wrong>"}` naming the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An error answer: the status and the message sent as `{"error": message}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, for people.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed (bad JSON, a missing or unknown field).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// 422: well-formed, but the position or move cannot be used (an illegal move,
    /// a malformed board string, a level out of range).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::UNPROCESSABLE_ENTITY, message: message.into() }
    }

    /// 404: no such resource (an unknown path, a WTHOR game that does not exist).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// 503: every search slot is taken, or the memory of a search's tables was refused
    /// (the request may succeed later).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into() }
    }

    /// 500: the server failed (a bug; the message says what failed).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}
