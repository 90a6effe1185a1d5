//! The posts a client address may make: a bucket of `N` a minute per address, refilled
//! steadily. Kept in each server's memory: behind a load balancer the limit is per server.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The addresses remembered before the full buckets are forgotten.
const REMEMBERED: usize = 10_000;

/// What one post costs from a bucket: a bucket of `N` a minute refills `N` units a ms, so one
/// post's worth in 60,000 / `N` ms, in whole numbers.
const POST: u64 = 60_000;

/// A bucket: what it holds now (in [`POST`]s' units) and when it was last filled.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    units: u64,
    at_ms: u64,
}

/// The posts per address per minute, `0` for no limit.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    origin: Instant,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    /// A limit of `per_minute` posts per address (0: none).
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_minute,
            origin: Instant::now(),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one post for `address` now.
    ///
    /// # Errors
    ///
    /// The seconds to wait before the address may post again.
    pub fn take(&self, address: IpAddr) -> Result<(), u64> {
        let now_ms = self.origin.elapsed().as_millis() as u64;
        self.take_at(address, now_ms)
    }

    /// Takes one post for `address` at `now_ms` (ms since the limiter began; never earlier than
    /// an earlier call's).
    ///
    /// # Errors
    ///
    /// The seconds to wait before the address may post again.
    pub fn take_at(&self, address: IpAddr, now_ms: u64) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let per_ms = u64::from(self.per_minute);
        let full = per_ms * POST;
        let filled = |bucket: &Bucket| {
            let refill = now_ms.saturating_sub(bucket.at_ms).saturating_mul(per_ms);
            bucket.units.saturating_add(refill).min(full)
        };
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= REMEMBERED {
            buckets.retain(|_, bucket| filled(bucket) < full);
        }
        let bucket = buckets.entry(client_key(address)).or_insert(Bucket {
            units: full,
            at_ms: now_ms,
        });
        bucket.units = filled(bucket);
        bucket.at_ms = now_ms;
        if bucket.units >= POST {
            bucket.units -= POST;
            Ok(())
        } else {
            let wait_ms = (POST - bucket.units).div_ceil(per_ms);
            Err(wait_ms.div_ceil(1000).max(1))
        }
    }
}

/// The key an address is limited by: an IPv4 address, or an IPv6 address's /64 (what one
/// household or machine is given).
fn client_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(prefix.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_n_posts_a_minute_and_is_told_when_to_come_back() {
        let limiter = RateLimiter::new(10);
        let one: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..10 {
            assert_eq!(limiter.take_at(one, 0), Ok(()));
        }
        assert_eq!(limiter.take_at(one, 0), Err(6), "one post each 6 s");
        assert_eq!(limiter.take_at(other, 0), Ok(()), "each address its own");
        assert_eq!(limiter.take_at(one, 5_000), Err(1));
        assert_eq!(limiter.take_at(one, 6_000), Ok(()));
        assert_eq!(limiter.take_at(one, 6_000), Err(6));
    }

    #[test]
    fn zero_is_no_limit_and_ipv6_is_limited_by_its_64() {
        let none = RateLimiter::new(0);
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        assert!((0..1_000).all(|_| none.take_at(address, 0).is_ok()));
        let limiter = RateLimiter::new(1);
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::2".parse().unwrap();
        let c: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        assert_eq!(limiter.take_at(a, 0), Ok(()));
        assert_eq!(limiter.take_at(b, 0), Err(60), "the same /64");
        assert_eq!(limiter.take_at(c, 0), Ok(()));
    }
}
