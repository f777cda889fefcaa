//! Static shortest-path routing (hop count, as ns-2's default static routing), unicast and the
//! source trees of multicast groups alike.
//!
//! Memory grows with the routers, not with the end hosts. A *leaf* is a node whose links all go
//! to one neighbour (an end host on its access link); every other node is a router. A leaf
//! forwards everything on its uplink, and a packet for a leaf is routed to the router it hangs
//! off, which hands it down. Only routers keep tables: one next-hop table per router that is
//! somebody's destination (or a leaf destination's attachment), over the routers, so a dumbbell
//! of 10,000 flows keeps two tables of two entries.
//!
//! The routes are exactly those of one breadth-first search per destination over incoming
//! links (ties to the lower-numbered link, so routes depend only on the topology's construction
//! order): a leaf is never a transit node, so leaving it out of a search changes no router's
//! next hop, and a leaf destination's search is its attachment router's plus the last hop.

use crate::topology::{LinkId, LinkSpec, NodeId};
use std::collections::VecDeque;

const NONE: LinkId = LinkId::MAX;

pub struct Routes {
    /// Per node: for a leaf, its uplink (its lowest-numbered link to its neighbour); `NONE` for
    /// a router.
    uplink: Vec<LinkId>,
    /// Per node: for a leaf, the lowest-numbered link from its neighbour to it; `NONE` otherwise.
    downlink: Vec<LinkId>,
    /// Per node: for a leaf, the node it hangs off; `NONE` otherwise.
    attach: Vec<NodeId>,
    /// Per node: its index among the routers (`NONE` for a leaf).
    router_index: Vec<u32>,
    /// Per router (by router index): its table's index in `tables`, `NONE` if no route leads to it.
    table_of: Vec<u32>,
    /// `tables[t][r]`: the link router `r` forwards on towards table t's router (`NONE`: none).
    tables: Vec<Vec<LinkId>>,
}

/// Routing needs more memory than the machine has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    pub bytes: usize,
}

impl Routes {
    /// Routes towards every node in `destinations` (and from anywhere).
    pub fn build(
        node_count: usize,
        links: &[LinkSpec],
        destinations: impl IntoIterator<Item = NodeId>,
    ) -> Result<Self, OutOfMemory> {
        // A node's neighbours: leaves have exactly one.
        let mut neighbour: Vec<Option<NodeId>> = vec![None; node_count];
        let mut several = vec![false; node_count];
        for l in links {
            for (a, b) in [(l.from, l.to), (l.to, l.from)] {
                match neighbour[a as usize] {
                    None => neighbour[a as usize] = Some(b),
                    Some(n) if n != b => several[a as usize] = true,
                    Some(_) => {}
                }
            }
        }
        let is_leaf = |n: usize| neighbour[n].is_some() && !several[n];
        let mut uplink = vec![NONE; node_count];
        let mut downlink = vec![NONE; node_count];
        for (i, l) in links.iter().enumerate() {
            let i = i as LinkId;
            if is_leaf(l.from as usize) && uplink[l.from as usize] == NONE {
                uplink[l.from as usize] = i;
            }
            if is_leaf(l.to as usize) && downlink[l.to as usize] == NONE {
                downlink[l.to as usize] = i;
            }
        }
        let mut router_index = vec![NONE; node_count];
        let mut routers = 0u32;
        for (n, r) in router_index.iter_mut().enumerate() {
            if !is_leaf(n) {
                *r = routers;
                routers += 1;
            }
        }
        // Incoming links between routers, in link order.
        let mut incoming: Vec<Vec<LinkId>> = vec![Vec::new(); routers as usize];
        for (i, l) in links.iter().enumerate() {
            let (f, t) = (router_index[l.from as usize], router_index[l.to as usize]);
            if f != NONE && t != NONE {
                incoming[t as usize].push(i as LinkId);
            }
        }
        let mut table_of = vec![NONE; routers as usize];
        let mut tables: Vec<Vec<LinkId>> = Vec::new();
        for dst in destinations {
            // A leaf's routes are its attachment router's (a two-node island has no router: its
            // leaves reach each other over their uplinks).
            let target =
                if is_leaf(dst as usize) { neighbour[dst as usize].expect("a leaf has a neighbour") } else { dst };
            let r = router_index[target as usize];
            if r == NONE || table_of[r as usize] != NONE {
                continue;
            }
            let mut table = Vec::new();
            table.try_reserve_exact(routers as usize).map_err(|_| OutOfMemory { bytes: 4 * routers as usize })?;
            table.resize(routers as usize, NONE);
            let mut seen = vec![false; routers as usize];
            let mut frontier = VecDeque::from([r]);
            seen[r as usize] = true;
            while let Some(n) = frontier.pop_front() {
                for &li in &incoming[n as usize] {
                    let from = router_index[links[li as usize].from as usize] as usize;
                    if !seen[from] {
                        seen[from] = true;
                        table[from] = li;
                        frontier.push_back(from as u32);
                    }
                }
            }
            tables.try_reserve(1).map_err(|_| OutOfMemory { bytes: 4 * routers as usize })?;
            table_of[r as usize] = tables.len() as u32;
            tables.push(table);
        }
        let attach = (0..node_count).map(|n| if is_leaf(n) { neighbour[n].expect("a leaf") } else { NONE }).collect();
        Ok(Routes { uplink, downlink, attach, router_index, table_of, tables })
    }

    /// The link `at` forwards on towards `dst` (`None`: `at` is `dst`, or `dst` is unreachable).
    #[inline]
    pub fn next_link(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        if at == dst {
            return None;
        }
        let up = *self.uplink.get(at as usize)?;
        if up != NONE {
            return Some(up);
        }
        let target = match *self.attach.get(dst as usize)? {
            NONE => dst,
            a if a == at => return Some(self.downlink[dst as usize]),
            a => a,
        };
        let r = self.router_index[target as usize];
        if r == NONE {
            return None;
        }
        let t = self.table_of[r as usize];
        if t == NONE {
            return None;
        }
        let l = self.tables[t as usize][self.router_index[at as usize] as usize];
        (l != NONE).then_some(l)
    }

    /// The links from `src` to `dst`, or `None` if `dst` is unreachable.
    pub fn path(&self, links: &[LinkSpec], src: NodeId, dst: NodeId) -> Option<Vec<LinkId>> {
        let mut path = Vec::new();
        let mut at = src;
        while at != dst {
            let l = self.next_link(at, dst)?;
            path.push(l);
            at = links[l as usize].to;
            if path.len() > links.len() {
                return None;
            }
        }
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{QueueConfig, QueueLimit};
    use proptest::prelude::*;
    use vidcc_core::{DataRate, Duration};

    fn links(pairs: &[(u32, u32)]) -> Vec<LinkSpec> {
        let spec = |from, to| LinkSpec {
            name: String::new(),
            from,
            to,
            bandwidth: DataRate::from_bps(1),
            delay: Duration::ZERO,
            queue: QueueConfig::DropTail { limit: QueueLimit::Packets(1) },
            loss: None,
            arq: None,
            monitored: false,
            forward: true,
        };
        pairs.iter().flat_map(|&(a, b)| [spec(a, b), spec(b, a)]).collect()
    }

    /// The tables this module replaced: one breadth-first search per destination over all nodes.
    fn full_tables(n: usize, links: &[LinkSpec], dst: NodeId) -> Vec<LinkId> {
        let mut incoming: Vec<Vec<LinkId>> = vec![Vec::new(); n];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to as usize].push(i as LinkId);
        }
        let mut table = vec![NONE; n];
        let mut seen = vec![false; n];
        let mut frontier = VecDeque::from([dst]);
        seen[dst as usize] = true;
        while let Some(x) = frontier.pop_front() {
            for &li in &incoming[x as usize] {
                let from = links[li as usize].from as usize;
                if !seen[from] {
                    seen[from] = true;
                    table[from] = li;
                    frontier.push_back(from as NodeId);
                }
            }
        }
        table
    }

    proptest! {
        /// Random graphs with parallel links, leaves and islands: every next hop is the one the
        /// full per-destination search gives.
        #[test]
        fn routes_equal_the_full_search(n in 2usize..14, edges in proptest::collection::vec((0u32..14, 0u32..14), 1..30)) {
            let pairs: Vec<(u32, u32)> =
                edges.into_iter().map(|(a, b)| (a % n as u32, b % n as u32)).filter(|(a, b)| a != b).collect();
            let links = links(&pairs);
            let routes = Routes::build(n, &links, 0..n as NodeId).expect("fits");
            for dst in 0..n as NodeId {
                let full = full_tables(n, &links, dst);
                for at in 0..n as NodeId {
                    let want = (at != dst && full[at as usize] != NONE).then(|| full[at as usize]);
                    let got = routes.next_link(at, dst);
                    // A leaf cut off from `dst` still points up its only link: the path search
                    // fails one hop later, as it must.
                    if want.is_none() && got.is_some() {
                        prop_assert!(routes.path(&links, at, dst).is_none(), "{at} -> {dst}");
                    } else {
                        prop_assert_eq!(got, want, "{} -> {}", at, dst);
                    }
                }
            }
        }
    }

    #[test]
    fn a_star_of_leaves_keeps_one_table_of_one_router() {
        // Router 0 with 1000 leaves: one table of one entry, however many destinations.
        let pairs: Vec<(u32, u32)> = (1..=1000).map(|i| (0, i)).collect();
        let links = links(&pairs);
        let routes = Routes::build(1001, &links, 0..1001).expect("fits");
        assert_eq!(routes.tables.len(), 1);
        assert_eq!(routes.tables[0].len(), 1);
        // Leaf i's links: 0 -> i is 2(i - 1), i -> 0 is 2(i - 1) + 1.
        assert_eq!(routes.path(&links, 5, 7), Some(vec![9, 12]));
    }
}
