//! A peer made of bytes given in advance, for reading answers without a
//! socket: the tests' peers and the fuzz target's.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Sends its chunks one read at a time, then ends the stream (or, when
/// `idle`, has nothing yet), and takes whatever is written.
pub(crate) struct Replay {
    pub(crate) chunks: VecDeque<Vec<u8>>,
    pub(crate) idle: bool,
}

impl Replay {
    /// A peer that sends `bytes`, `chunk` at a time (all at once for 0),
    /// then ends the stream.
    pub(crate) fn of(bytes: &[u8], chunk: usize) -> Replay {
        let size = if chunk == 0 {
            bytes.len().max(1)
        } else {
            chunk
        };
        Replay {
            chunks: bytes.chunks(size).map(<[u8]>::to_vec).collect(),
            idle: false,
        }
    }
}

impl AsyncRead for Replay {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.chunks.pop_front() {
            Some(mut chunk) => {
                let n = chunk.len().min(buf.remaining());
                buf.put_slice(&chunk[..n]);
                if n < chunk.len() {
                    self.chunks.push_front(chunk.split_off(n));
                }
                Poll::Ready(Ok(()))
            }
            None if self.idle => Poll::Pending,
            None => Poll::Ready(Ok(())),
        }
    }
}

impl AsyncWrite for Replay {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}
